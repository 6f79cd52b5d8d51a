"""Notifications (docs/server.md, "Notifications"): mail to the accounts that asked and
webhook posts for each game, made from the game's events after they commit and sent by a
loop of their own beside the deadline worker, so that neither a mail server nor a webhook
that is slow, down or failing ever holds up or fails an adjudication."""
