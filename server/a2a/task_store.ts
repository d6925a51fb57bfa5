/**
 * The SDK's TaskStore over the a2a_tasks table, bound to one publisher and one caller, so that any
 * node serves any task (docs/DESIGN.md §9) and a task id never reaches another caller's task. Every
 * save checks the state machine (states.ts) and writes with compare-and-set on the stored state.
 */
import { type ListTasksRequest, type ListTasksResponse, Task } from "@a2a-js/sdk";
import { A2AError, TaskNotCancelableError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { TaskStore } from "@a2a-js/sdk/server";
import { findA2aTask, saveA2aTask } from "../../store/a2a_tasks.ts";
import type { Client } from "../../store/db.ts";
import type { Clock } from "../clock.ts";
import { canTransition, type StateName, stateName } from "./states.ts";

/** Whose tasks the store serves. */
export interface TaskScope {
  publisherId: string;
  identity: string;
}

/** A TaskStore for one publisher and caller identity. */
export function storeTaskStore(
  deps: { db: Client; clock: Clock },
  scope: TaskScope,
): TaskStore {
  return {
    async load(taskId: string) {
      const row = await findA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: taskId,
      });
      return row ? Task.fromJSON(row.document) : undefined;
    },
    async save(task: Task) {
      const next = stateName(task.status?.state);
      if (!next) throw new A2AError(`Task ${task.id} has no known state`);
      const current = await findA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: task.id,
      });
      const from = current ? current.state as StateName : null;
      if (from && !canTransition(from, next)) {
        throw next === "canceled"
          ? new TaskNotCancelableError(`Task ${task.id} is ${from} and cannot be canceled`)
          : new A2AError(`Task ${task.id} cannot move from ${from} to ${next}`);
      }
      const wrote = await saveA2aTask(deps.db, scope.publisherId, {
        identity: scope.identity,
        id: task.id,
        contextId: task.contextId,
        state: next,
        document: Task.toJSON(task),
        expectState: from,
        now: deps.clock.now(),
      });
      if (!wrote) {
        // Another request changed (or created) the task between our read and our write.
        throw next === "canceled"
          ? new TaskNotCancelableError(`Task ${task.id} changed state while being canceled`)
          : new A2AError(`Task ${task.id} was changed by another request; retry`);
      }
    },
    list(_params: ListTasksRequest): Promise<ListTasksResponse> {
      return Promise.reject(new UnsupportedOperationError("ListTasks is not offered by Folio"));
    },
  };
}
