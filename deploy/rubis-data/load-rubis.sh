#!/bin/sh
# Loads the RUBiS schema and data set into MariaDB with rubis-datagen, once: when the users table already
# holds rows (a restarted stack on its persistent volume) there is nothing to do. rubis-datagen itself refuses
# to load into a non-empty database, so asking first is what makes `docker compose up` repeatable.
set -eu

host=${RUBIS_DB_HOST:?RUBIS_DB_HOST is not set}
port=${RUBIS_DB_PORT:-3306}
name=${RUBIS_DB_NAME:-rubis}
user=${RUBIS_DB_USER:-rubis}
password=${RUBIS_DB_PASSWORD:-}
scale=${RUBIS_SCALE:-0.1}
seed=${RUBIS_SEED:-1}
jar=${RUBIS_DATAGEN_JAR:-/opt/rubis/rubis-datagen.jar}

case $name in
  *[!A-Za-z0-9_]*|'') echo "load-rubis: RUBIS_DB_NAME must be a plain identifier, got '$name'" >&2; exit 2 ;;
esac

sql() {
  MYSQL_PWD=$password mariadb --protocol=TCP -h "$host" -P "$port" -u "$user" -N -B -e "$1"
}

tables=$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$name' AND table_name = 'users'")
if [ "$tables" = 1 ]; then
  users=$(sql "SELECT COUNT(*) FROM \`$name\`.users")
  if [ "$users" -gt 0 ]; then
    echo "load-rubis: $name already holds $users users; nothing to load"
    exit 0
  fi
fi

echo "load-rubis: loading RUBiS at scale $scale (seed $seed) into $name on $host:$port"
exec java -jar "$jar" --jdbc "jdbc:mariadb://$host:$port/$name" --scale "$scale" --seed "$seed" \
  --user "$user" --password "$password"
