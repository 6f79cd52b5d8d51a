"""Influence economies: how players buy the orders of units they do not own."""
