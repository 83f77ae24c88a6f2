# Sourced by catalina.sh. RUBiS reads its MariaDB settings from these system properties
# (rubis-app's rubis-mariadb.xml); CATALINA_OPTS from the container's environment is kept and wins.
CATALINA_OPTS="-Drubis.jdbc.url=jdbc:mariadb://${RUBIS_DB_HOST:-mariadb}:3306/${RUBIS_DB_NAME:-rubis} \
 -Drubis.jdbc.user=${RUBIS_DB_USER:-rubis} -Drubis.jdbc.password=${RUBIS_DB_PASSWORD:-rubis} \
 -Drubis.autoload=false -XX:MaxRAMPercentage=60 ${CATALINA_OPTS:-}"
export CATALINA_OPTS
