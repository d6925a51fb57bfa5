// Fixtures for the search tests: a fresh store in a temp dir, publishers, books and articles.
import { openStore, type Store } from "../store/db.ts";
import { type ArticleInput, upsertArticle } from "../store/articles.ts";
import { createSearchService, type SearchServiceOptions } from "./service.ts";

/** A search service over `store` on the system clock, keeping nothing on disk unless told. */
export function testService(
  store: Store,
  options: Partial<Omit<SearchServiceOptions, "db">> = {},
) {
  return createSearchService({ db: store.db, now: () => new Date(), dataDir: null, ...options });
}

/** A fresh store in its own temp dir; dispose removes both. */
export async function tempStore(): Promise<
  Store & { dir: string; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "folio-search-" });
  const store = await openStore(`file:${dir}/folio.db`, { now: new Date() });
  return {
    ...store,
    dir,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

export const NOW = new Date("2025-01-15T12:00:00Z");

/** Inserts a publisher row. */
export async function addPublisher(store: Store, id: string): Promise<void> {
  await store.db.execute({
    sql: "INSERT INTO publishers (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    args: [id, id, `Publisher ${id}`, NOW.getTime(), NOW.getTime()],
  });
}

/** Inserts a book with a rights ceiling. */
export async function addBook(
  store: Store,
  publisherId: string,
  id: string,
  rag: boolean,
): Promise<void> {
  const ceiling = { summarization: true, display: false, rag, fine_tuning: false };
  await store.db.execute({
    sql: `INSERT INTO books (id, publisher_id, title, author, format, rights_ceiling, created_at)
          VALUES (?, ?, ?, 'A. Author', 'text', ?, ?)`,
    args: [id, publisherId, `Book ${id}`, JSON.stringify(ceiling), NOW.getTime()],
  });
}

/** Upserts an article at `https://example.test/<slug>`; returns its id. */
export async function addArticle(
  store: Store,
  publisherId: string,
  slug: string,
  input: Partial<ArticleInput> & { title: string; body: string },
): Promise<string> {
  const { id } = await upsertArticle(store.db, publisherId, {
    url: `https://example.test/${slug}`,
    ...input,
  }, {
    now: NOW,
  });
  return id;
}

/** Three topics; the vehicle docs tie "car" and "driver" to "automobile", "motor" and "fuel". */
export const TOPICS = {
  vehicles: [
    "The car driver checked the engine and the automobile fuel gauge before the road trip.",
    "A driver parks the car; the automobile motor cools while the wheels rest on the road.",
    "Car makers build automobile engines; every driver wants a motor that saves fuel.",
    "The driver steered the car along the road, the automobile wheels humming on asphalt.",
    "Fuel prices worry every car driver; an efficient automobile motor burns less fuel.",
    "The mechanic fixed the car engine, and the driver drove the automobile home by road.",
    "An automobile needs wheels, an engine and fuel; the car driver needs a licence.",
    "Electric car motors replace the automobile engine; the driver charges instead of buying fuel.",
  ],
  cooking: [
    "The baker mixed flour, sugar and butter, then put the bread in the hot oven.",
    "A kitchen recipe for bread: flour, water, yeast; bake it in the oven for an hour.",
    "Butter and sugar make the cake sweet; the recipe says bake at a moderate oven heat.",
    "The kitchen smelled of fresh bread as the baker took the loaf from the oven.",
    "Sift the flour, cream the butter and sugar, and follow the recipe in the kitchen.",
    "Bake cookies with flour, butter, sugar and chocolate; cool them outside the oven.",
    "The recipe book lists bread, cake and cookie recipes for a home kitchen oven.",
    "Knead the dough of flour and water, let it rise, then bake the bread in the oven.",
  ],
  astronomy: [
    "The astronomer pointed the telescope at a distant star and its orbiting planet.",
    "A comet crossed the planet's orbit; the telescope tracked it across the galaxy.",
    "Stars in our galaxy host planets; the astronomer measured each orbit with a telescope.",
    "The moon orbits the planet while the planet orbits the star at the galaxy's edge.",
    "A new telescope lets every astronomer see faint stars, comets and planets.",
    "The galaxy holds billions of stars; astronomers count them with a telescope.",
    "The planet's moon and a passing comet were seen by the astronomer's telescope.",
    "Orbit calculations tell the astronomer where the planet and star will appear.",
  ],
};

/** A passage about vehicles that shares no word with the query "car driver". */
export const PARAPHRASE = "An automobile motor burns fuel while its wheels grip the road.";

/** The TOPICS articles and the PARAPHRASE one; their ids by `${topic}${i}` and "paraphrase". */
export async function seedTopics(
  store: Awaited<ReturnType<typeof tempStore>>,
  publisherId: string,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [topic, texts] of Object.entries(TOPICS)) {
    for (const [i, body] of texts.entries()) {
      ids[`${topic}${i}`] = await addArticle(store, publisherId, `${topic}-${i}`, {
        title: `${topic} ${i}`,
        body,
      });
    }
  }
  ids.paraphrase = await addArticle(store, publisherId, "para", {
    title: "Highway notes",
    body: PARAPHRASE,
  });
  return ids;
}
