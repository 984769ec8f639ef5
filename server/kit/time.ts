// Datetimes leave the API as ISO 8601 with an offset (UTC, `Z`): the client rejects naive ones.
export function iso(d: Date | string | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return (d instanceof Date ? d : new Date(d)).toISOString();
}
export function isoRequired(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

/** Resolves after `ms` milliseconds (the global timer, so fake timers control it). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
