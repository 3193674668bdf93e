"""Language tools shared by the agent and the sources (issue 19): Chinese segmentation and
offline Chinese-English translation. Below agent/ and sources/; imports neither."""
