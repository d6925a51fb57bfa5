-- Article lookups by canonical URL (get_article accepts an id, a URL or a canonical URL).
CREATE INDEX articles_by_canonical ON articles (publisher_id, canonical_url)
  WHERE canonical_url IS NOT NULL;
