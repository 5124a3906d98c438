"""Files read and written: the record file, its lock, the paths a command is given, the one write path."""
