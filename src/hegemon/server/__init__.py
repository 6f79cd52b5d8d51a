"""The server: games for many players over HTTP (`create_app`), their deadlines run by
workers (`worker`), on a database of `hegemon.store`. docs/server.md describes the API.
"""

from hegemon.server.app import create_app, from_environment

__all__ = ["create_app", "from_environment"]
