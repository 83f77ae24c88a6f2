DROP DATABASE IF EXISTS t_grown;
CREATE DATABASE t_grown;
CREATE TABLE t_grown.categories LIKE rubis_fresh_check.categories; INSERT INTO t_grown.categories SELECT * FROM rubis_fresh_check.categories;
CREATE TABLE t_grown.regions LIKE rubis_fresh_check.regions; INSERT INTO t_grown.regions SELECT * FROM rubis_fresh_check.regions;
CREATE TABLE t_grown.old_items LIKE rubis_fresh_check.old_items; INSERT INTO t_grown.old_items SELECT * FROM rubis_fresh_check.old_items;
CREATE TABLE t_grown.comments LIKE rubis_fresh_check.comments; INSERT INTO t_grown.comments SELECT * FROM rubis_fresh_check.comments;
CREATE TABLE t_grown.items LIKE rubis_fresh_check.items; INSERT INTO t_grown.items SELECT * FROM rubis_fresh_check.items;
CREATE TABLE t_grown.users LIKE rubis_fresh_check.users; INSERT INTO t_grown.users SELECT * FROM rubis_fresh_check.users;
CREATE TABLE t_grown.bids LIKE rubis_fresh_check.bids; INSERT INTO t_grown.bids SELECT * FROM rubis_fresh_check.bids;
CREATE TABLE t_grown.buy_now LIKE rubis_fresh_check.buy_now; INSERT INTO t_grown.buy_now SELECT * FROM rubis_fresh_check.buy_now;
-- what one 6-minute bidding run of two modes added (2026-11-27, bid1): items +1,056, users +2,034, bids +3,346, buy_now +497
ALTER TABLE t_grown.items AUTO_INCREMENT = 5329;
INSERT INTO t_grown.items (name,description,initial_price,quantity,reserve_price,buy_now,nb_of_bids,max_bid,start_date,end_date,seller,category)
  SELECT i.name,i.description,i.initial_price,i.quantity,i.reserve_price,i.buy_now,0,0,NOW(),NOW() + INTERVAL 7 DAY,i.seller,i.category
  FROM rubis_fresh_check.items i JOIN (SELECT 1 k UNION SELECT 2 UNION SELECT 3 UNION SELECT 4) r ORDER BY RAND(7) LIMIT 1056;
INSERT INTO t_grown.users (firstname,lastname,nickname,password,email,rating,balance,creation_date,region)
  SELECT u.firstname,u.lastname,CONCAT('g',u.id),u.password,u.email,0,0,NOW(),u.region FROM rubis_fresh_check.users u ORDER BY u.id LIMIT 2034;
INSERT INTO t_grown.bids (user_id,item_id,qty,bid,max_bid,date)
  SELECT b.user_id, 5329 + MOD(b.id * 7919, 1056), b.qty,b.bid,b.max_bid,NOW() FROM rubis_fresh_check.bids b ORDER BY b.id LIMIT 3346;
INSERT INTO t_grown.buy_now (buyer_id,item_id,qty,date) SELECT u.id, 5329 + MOD(u.id*31, 1056), 1, NOW() FROM rubis_fresh_check.users u ORDER BY u.id LIMIT 497;
SELECT (SELECT COUNT(*) FROM t_grown.items) items,(SELECT COUNT(*) FROM t_grown.users) users,(SELECT COUNT(*) FROM t_grown.bids) bids,(SELECT COUNT(*) FROM t_grown.buy_now) buy_now;
