-- Buyer keys join the cached configuration (store/config_cache.ts): a key is looked up on every
-- buyer request and changes rarely (sign-up, rotation, revocation, a buyer's own settings), so a
-- change to buyers or their keys bumps the same version, and every process sees it on its next
-- request.
CREATE TRIGGER buyers_insert_bumps_config AFTER INSERT ON buyers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER buyers_update_bumps_config AFTER UPDATE ON buyers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER buyers_delete_bumps_config AFTER DELETE ON buyers
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER buyer_keys_insert_bumps_config AFTER INSERT ON buyer_keys
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER buyer_keys_update_bumps_config AFTER UPDATE ON buyer_keys
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER buyer_keys_delete_bumps_config AFTER DELETE ON buyer_keys
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
