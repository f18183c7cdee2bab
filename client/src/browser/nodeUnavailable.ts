// In the web bundle this module stands in for Node's http, https and crypto (scripts/bundle.js). The api
// layer, shared with the desktop and the CLI, keeps them for Node's transport and the loopback sign-in; in a
// browser calls go over fetch (setDefaultTransport) and sign-in through VS Code's authentication providers,
// so nothing here is reached unless a Node-only path is asked for, and then it says so.
const MESSAGE =
  'This cannot run inside VS Code for the Web: the browser sign-in with a loopback redirect needs Node. ' +
  'Sign in with a VS Code authentication provider (setting policySet.auth.providerId), or use the desktop extension or the policyset CLI.';

function unavailable(): never {
  throw new Error(MESSAGE);
}

export const request = unavailable;
export const get = unavailable;
export const createServer = unavailable;
export const randomBytes = unavailable;
export const timingSafeEqual = unavailable;
export default { request, get, createServer, randomBytes, timingSafeEqual };
