"""Resolution of movement, retreat and adjustment phases: pure functions."""
