-- Issue 15: every charged read inserts one ledger row, and each index on charges is one more
-- b-tree to write in that read's commit. Two of the six were never the best choice of any query:
-- the buyer's queries use charges_by_statement (buyer_id, statement_month), and the publisher's
-- daily charges read charges_by_publisher_statement with statement_month >= month (a charge's
-- statement month is its own or a later one, store/charges.ts). Charged reads: +8-10%.
DROP INDEX charges_by_buyer_month;
DROP INDEX charges_by_publisher_month;
