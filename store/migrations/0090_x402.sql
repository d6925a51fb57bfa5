-- Issue 40: x402 payments (docs/decisions/x402.md). A read paid on chain is a charge collected at
-- the read, like a card checkout's (`paid_via`), so its month closes with nothing due and its
-- publisher's share counts as collected.
ALTER TABLE charges ALTER COLUMN paid_via TO paid_via TEXT
  CHECK (paid_via IS NULL OR paid_via IN ('card', 'x402'));

-- One row per payment authorisation, written before it is settled: its replay key (network,
-- token, payer and EIP-3009 nonce) is UNIQUE, so an authorisation pays once across every process
-- on the store, and a crash between settlement and the charge leaves a row to reconcile on start.
CREATE TABLE x402_payments (
  id TEXT PRIMARY KEY,
  replay_key TEXT NOT NULL UNIQUE,
  network TEXT NOT NULL,
  asset TEXT NOT NULL,
  payer TEXT NOT NULL,
  buyer_id TEXT NOT NULL,
  publisher_id TEXT NOT NULL,
  article_id TEXT NOT NULL,
  resource TEXT NOT NULL,
  amount_micros INTEGER NOT NULL CHECK (amount_micros > 0),
  fee_micros INTEGER NOT NULL CHECK (fee_micros >= 0),
  use_case TEXT NOT NULL,
  -- settling: sent to the facilitator; settled: on chain, not yet charged; charged: done;
  -- failed: not settled, nothing charged.
  state TEXT NOT NULL CHECK (state IN ('settling', 'settled', 'charged', 'failed')),
  tx_hash TEXT,
  charge_id TEXT,
  error TEXT,
  payload TEXT NOT NULL,
  requirements TEXT NOT NULL,
  valid_before INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX x402_payments_open ON x402_payments (state) WHERE state IN ('settling', 'settled');
CREATE INDEX x402_payments_by_charge ON x402_payments (charge_id);
