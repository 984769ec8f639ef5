// The generated typed client (generated/client), pointed at the origin the console is served from
// (the API itself, or Vite's dev proxy in front of it) and given the caller's credentials.
import { client } from "../../generated/client/client.gen";
import { credentials } from "./authProvider/credentials";

client.setConfig({
  baseUrl: "",
  credentials: "same-origin",
  auth: () => credentials.bearer(),
});

export { client };
export * as sdk from "../../generated/client/sdk.gen";
export type * from "../../generated/client/types.gen";
