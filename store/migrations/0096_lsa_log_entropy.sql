-- Issue 41: the LSA models are trained on log-entropy weights instead of TF-IDF (search/lsa.ts,
-- docs/decisions/search.md "Log-entropy weights"). A model trained before still folds text in
-- with its own weights; counting it as trained on no documents makes each publisher's next
-- upkeep pass retrain it (search/models.ts needsTraining) and re-embed with the new one.
UPDATE search_models SET docs = 0;
