copydb() { # $1 source, $2 target
  mysql -uroot -h127.0.0.1 -e "DROP DATABASE IF EXISTS $2; CREATE DATABASE $2"
  for t in $(mysql -uroot -h127.0.0.1 -N -e "select table_name from information_schema.tables where table_schema='$1'"); do
    ai=$(mysql -uroot -h127.0.0.1 -N -e "select ifnull(auto_increment,0) from information_schema.tables where table_schema='$1' and table_name='$t'")
    mysql -uroot -h127.0.0.1 -e "CREATE TABLE $2.$t LIKE $1.$t; INSERT INTO $2.$t SELECT * FROM $1.$t"
    [ "$ai" != 0 ] && mysql -uroot -h127.0.0.1 -e "ALTER TABLE $2.$t AUTO_INCREMENT=$ai"
  done
}
cd /work/main
for round in 1 2; do
  for data in loaded grown; do
    if [ $data = loaded ]; then copydb rubis_fresh_check rubis_experiment_0_01_loaded; else copydb t_grown rubis_experiment_0_01_loaded; fi
    bin/experiment --modes adaptive --rates 150 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --tls 1.3 --mix bidding --no-cpu-change --no-flash-crowd --out /tmp/ab/db-$data-$round > /tmp/ab/db-$data-$round.log 2>&1
    grep -E 'replies/s|MariaDB' /tmp/ab/db-$data-$round.log | tail -2
  done
done
