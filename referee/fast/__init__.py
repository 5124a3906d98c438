"""The compiled fast path: which path runs, and what the hand-written value classes share."""
