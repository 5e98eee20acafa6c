"""Alembic environment: run the revisions on the connection the store hands over.

There is no engine and no URL here on purpose.  :func:`rulekeeper.persistence.migrate.upgrade_to_head`
passes the store's own connection (``config.attributes["connection"]``), already inside
the write transaction that holds the database lock; Alembic sees that transaction
and neither begins nor commits one, so the store commits the whole upgrade at once.
Offline (``--sql``) mode is not supported: revision 0001 inspects the database to
adopt a legacy one, which a script cannot do.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from rulekeeper.persistence.migrate import VERSION_TABLE


def run_migrations() -> None:
    if context.is_offline_mode():
        raise RuntimeError("rulekeeper migrations run only online, on a store's connection")
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("rulekeeper migrations run on a store's connection: open a store to upgrade a database")
    context.configure(connection=connection, version_table=VERSION_TABLE)
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
