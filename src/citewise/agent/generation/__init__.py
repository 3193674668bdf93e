"""Answers written by a language model: prompts, numbered evidence, and the verification of
every generated sentence."""
