-- A buyer's active licenses for a publisher join the cached configuration (store/config_cache.ts):
-- every buyer read needs them and they change rarely (a subscription, an approval, a
-- cancellation), so a change to licenses bumps the configuration version, and every process sees
-- it on its next request. Terms are still checked against the clock on every read.
CREATE TRIGGER licenses_insert_bumps_config AFTER INSERT ON licenses
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER licenses_update_bumps_config AFTER UPDATE ON licenses
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER licenses_delete_bumps_config AFTER DELETE ON licenses
BEGIN UPDATE config_version SET version = version + 1 WHERE id = 1; END;
