#!/bin/sh
# As the official redis image's entrypoint: redis-server started without a configuration file
# answers the other containers (protected mode off; the network is compose's own).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  set -- redis-server --protected-mode no "$@"
fi
exec "$@"
