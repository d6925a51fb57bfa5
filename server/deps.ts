/** What the application is built from: everything with I/O is injected, so tests build it too. */
import type { SearchService } from "../search/mod.ts";
import type { Store } from "../store/db.ts";
import type { Buyer } from "../store/buyers.ts";
import type { Publisher } from "../store/publishers.ts";
import type { CallLog } from "./call_log.ts";
import type { Clock } from "./clock.ts";
import type { GuardedFetcher } from "./catalog/fetcher.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";

/** The application's dependencies. */
export interface AppDeps {
  store: Store;
  config: Config;
  clock: Clock;
  log: Logger;
  callLog: CallLog;
  search: SearchService;
  fetcher: GuardedFetcher;
}

/** Hono's environment for every route: the request id and, on publisher hosts, the publisher. */
export interface AppEnv {
  Variables: {
    requestId: string;
    publisher: Publisher | null;
    /** Set by the marketplace's buyer authentication. */
    buyer: Buyer | null;
  };
}
