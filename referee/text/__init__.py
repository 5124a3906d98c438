"""Text in and out: safe to print, cut to a terminal's width, numbers as people write them, languages, French words."""
