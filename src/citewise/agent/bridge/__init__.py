"""The language bridge: a Chinese question carried over to English for the analysis, and Chinese
answers over English papers."""
