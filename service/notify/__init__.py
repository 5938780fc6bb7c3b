"""Notifications: seats are told when it is their turn, when a game ends and when a
referee rules — by signed webhook and by email, retried with backoff.

The event log is the outbox: a follower reads the application's notification log from a
tracked position and enqueues deliveries in the same transaction that advances the
position, so a move never waits on (or fails because of) a mail server, and nothing is
enqueued twice or lost across restarts.
"""
