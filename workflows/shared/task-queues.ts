// Task queue names. Workers poll these and clients start workflows on them, so both sides
// import the name from here instead of spelling it.

/** The one queue every Borealis workflow and activity runs on (split it only when a load needs its own workers). */
export const BOREALIS_TASK_QUEUE = "borealis";
