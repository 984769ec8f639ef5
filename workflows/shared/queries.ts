// Query definitions, shared by the workflows that answer them and the code that asks.
import { defineQuery } from "@temporalio/workflow";

export interface RelayStats {
  /** Outbox rows the relay has published since it was first started (carried over continueAsNew). */
  relayed: number;
  /** Batches claimed by the current run; the run continues as new when this reaches its limit. */
  iterations: number;
}

export const relayStatsQuery = defineQuery<RelayStats>("relayStats");
