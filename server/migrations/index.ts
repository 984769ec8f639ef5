// Every migration, in order. New migrations are appended here.
import * as core from "./0001_core.js";

export const migrations = [{ name: "0001_core", ...core }];
