#!/bin/sh
# The official postgres image's first start, with Debian's PostgreSQL: a cluster in PGDATA made
# for POSTGRES_USER (password POSTGRES_PASSWORD) with the database POSTGRES_DB, then the server,
# run as the postgres user, listening on every address (PGPORT, 5432 by default).
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" >/tmp/pgpass
  chown postgres /tmp/pgpass
  runuser -u postgres -- initdb --username="$POSTGRES_USER" --pwfile=/tmp/pgpass \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm /tmp/pgpass
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  runuser -u postgres -- pg_ctl -w -o "-c listen_addresses=''" start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    runuser -u postgres -- createdb --username="$POSTGRES_USER" "$POSTGRES_DB"
  fi
  runuser -u postgres -- pg_ctl -w -m fast stop >/dev/null
fi
# The server is the container's first process (setpriv execs it): SIGTERM stops it cleanly.
exec setpriv --reuid=postgres --regid=postgres --init-groups "$@" -c listen_addresses='*'
