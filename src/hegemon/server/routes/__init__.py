"""The API's routes, by area."""
