"""Numbers and tables: the one number reader, answers read from table cells or computed from
cited figures, and the one check of such sentences."""
