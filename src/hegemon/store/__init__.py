"""Games kept in a database: the tables (`models`), transactions on them (`Store`), the
migrations that create and change them, and the exchange with the CLI's game files.

The server and its deadline workers share one database: a SQLite file by default, or
PostgreSQL for several processes at once.
"""

from hegemon.store.database import DEFAULT_URL, DatabaseError, Store, database_url

__all__ = ["DEFAULT_URL", "DatabaseError", "Store", "database_url"]
