-- RUBiS schema for MariaDB (InnoDB, utf8mb4). Same tables, columns and indexes as schema-h2.sql.
-- Statements are separated by a line holding only ';'.
CREATE TABLE categories (
  id   INT NOT NULL PRIMARY KEY,
  name VARCHAR(50) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE TABLE regions (
  id   INT NOT NULL PRIMARY KEY,
  name VARCHAR(25) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE TABLE users (
  id            INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  firstname     VARCHAR(20) NOT NULL,
  lastname      VARCHAR(20) NOT NULL,
  nickname      VARCHAR(20) NOT NULL,
  password      VARCHAR(20) NOT NULL,
  email         VARCHAR(50) NOT NULL,
  rating        INT NOT NULL DEFAULT 0,
  balance       DECIMAL(12,2) NOT NULL DEFAULT 0,
  creation_date DATETIME NOT NULL,
  region        INT NOT NULL,
  CONSTRAINT users_nickname UNIQUE (nickname)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX users_auth ON users (nickname, password)
;
CREATE INDEX users_region ON users (region)
;
CREATE TABLE items (
  id            INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name          VARCHAR(100) NOT NULL,
  description   TEXT NOT NULL,
  initial_price DECIMAL(12,2) NOT NULL,
  quantity      INT NOT NULL,
  reserve_price DECIMAL(12,2) NOT NULL DEFAULT 0,
  buy_now       DECIMAL(12,2) NOT NULL DEFAULT 0,
  nb_of_bids    INT NOT NULL DEFAULT 0,
  max_bid       DECIMAL(12,2) NOT NULL DEFAULT 0,
  start_date    DATETIME NOT NULL,
  end_date      DATETIME NOT NULL,
  seller        INT NOT NULL,
  category      INT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX items_seller ON items (seller)
;
CREATE INDEX items_category_end ON items (category, end_date)
;
CREATE TABLE old_items (
  id            INT NOT NULL PRIMARY KEY,
  name          VARCHAR(100) NOT NULL,
  description   TEXT NOT NULL,
  initial_price DECIMAL(12,2) NOT NULL,
  quantity      INT NOT NULL,
  reserve_price DECIMAL(12,2) NOT NULL DEFAULT 0,
  buy_now       DECIMAL(12,2) NOT NULL DEFAULT 0,
  nb_of_bids    INT NOT NULL DEFAULT 0,
  max_bid       DECIMAL(12,2) NOT NULL DEFAULT 0,
  start_date    DATETIME NOT NULL,
  end_date      DATETIME NOT NULL,
  seller        INT NOT NULL,
  category      INT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX old_items_seller ON old_items (seller)
;
CREATE INDEX old_items_category ON old_items (category)
;
CREATE TABLE bids (
  id      INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id INT NOT NULL,
  item_id INT NOT NULL,
  qty     INT NOT NULL,
  bid     DECIMAL(12,2) NOT NULL,
  max_bid DECIMAL(12,2) NOT NULL,
  date    DATETIME NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX bids_item ON bids (item_id)
;
CREATE INDEX bids_user ON bids (user_id)
;
CREATE TABLE comments (
  id           INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  from_user_id INT NOT NULL,
  to_user_id   INT NOT NULL,
  item_id      INT NOT NULL,
  rating       INT NOT NULL,
  date         DATETIME NOT NULL,
  comment      TEXT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX comments_from ON comments (from_user_id)
;
CREATE INDEX comments_to ON comments (to_user_id)
;
CREATE INDEX comments_item ON comments (item_id)
;
CREATE TABLE buy_now (
  id       INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  buyer_id INT NOT NULL,
  item_id  INT NOT NULL,
  qty      INT NOT NULL,
  date     DATETIME NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4
;
CREATE INDEX buy_now_buyer ON buy_now (buyer_id)
;
CREATE INDEX buy_now_item ON buy_now (item_id)
;
