// Request bodies that break the contract on purpose: a test that checks the server's 422 must get
// a wrong value past the SDK's (or a handler's) types. The one place such a value changes type.

/** `value`, typed as whatever the call expects; only for input a test means to be invalid. */
export function invalid<T>(value: unknown): T {
  return value as T;
}
