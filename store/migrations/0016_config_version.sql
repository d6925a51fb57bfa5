-- One store-wide version of the configuration every request reads (publishers and their content
-- rules), bumped by triggers on any change. Each process caches those rows and compares this one
-- number before using them, so a change committed by any process is seen on its next request.
CREATE TABLE config_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO config_version (id, version) VALUES (1, 0);

CREATE TRIGGER publishers_insert_bumps_config AFTER INSERT ON publishers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER publishers_update_bumps_config AFTER UPDATE ON publishers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER publishers_delete_bumps_config AFTER DELETE ON publishers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER rules_insert_bumps_config AFTER INSERT ON content_rules
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER rules_update_bumps_config AFTER UPDATE ON content_rules
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER rules_delete_bumps_config AFTER DELETE ON content_rules
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
