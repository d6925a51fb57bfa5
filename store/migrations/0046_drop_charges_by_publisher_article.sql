-- Every index on charges is written by each charged read. Top earning articles narrow by usage
-- month through charges_by_publisher_month instead (store/analytics.ts topArticles).
DROP INDEX IF EXISTS charges_by_publisher_article;
