/** Suite titles the runners read results by (this module loads outside VS Code too). */

/** The checks that need the language server's completion and quick fixes. */
export const SERVER_FEATURES_SUITE = 'Server features: strongType completion and the declare-group quick fix';

/** The fetch and deploy commands against the local service, signed in through a test authentication provider. */
export const SERVICE_SUITE = 'Service commands: fetch and deploy against the local service';
/** Advisor metadata (E3) and eventstreams (E4) from the palette, against the same local service. */
export const ITEMS_SUITE = 'Item commands: advisor metadata and eventstreams against the local service';
/** The screenshot of the advisor metadata view, under .cache/e2e/screenshots. */
export const METADATA_SCREENSHOT = 'advisorMetadata';

/** The test authentication provider the suite registers; policySet.auth.providerId names it. */
export const E2E_AUTH_PROVIDER = 'policyset-e2e-auth';
/** Its session's token: the only one the local service accepts, and what the leak check searches for. */
export const E2E_TOKEN = 'E2E-TOKEN-7d1f0c93a4b6e258';
/** A built-in set the local service serves on any clone (NIS2: in the corpus subset and the full corpus). */
export const E2E_BUILT_IN = '32ff9e30-4725-4ca7-ba3a-904a7721ee87';

/** The line prefix by which the suite asks the runner for what only a person can do in the page: type, read a notification. */
export const UI_REQUEST_PREFIX = '[policyset-e2e-ui]';
/** Where, in the workspace folder, the runner writes `<id>.json` (a UiAnswer) when it has done request `id`. */
export const UI_ANSWERS_FOLDER = '.e2e-ui';
export type UiRequest = { id: string } &
  /** Type `text` with the keyboard, into whatever has the focus (the active editor). */
  (
    | { kind: 'type'; text: string }
    /** Wait for a notification (toast or notification centre) including `text`; answer its whole text. */
    | { kind: 'readNotification'; text: string }
    /** Click `button` on the notification including `text` (Cancel on a progress notification). */
    | { kind: 'clickNotificationButton'; text: string; button: string }
    /** Run a command from the command palette (F1), by its title, as a person does. */
    | { kind: 'runCommand'; title: string }
    /** Wait until the side bar view titled `view` shows `text`, take a screenshot `<name>.png`; answer the view's visible rows. */
    | { kind: 'screenshotView'; view: string; text: string; name: string }
    /** Wait until a webview page (an editor's or a panel's frame) shows `text`, take a screenshot `<name>.png`; answer the page's text. */
    | { kind: 'readPage'; text: string; name: string }
  );
export interface UiAnswer {
  ok: boolean;
  text?: string;
  error?: string;
}
/** The account of the test authentication provider. */
export const E2E_ACCOUNT = 'E2E User';

/** The quota commands (Create or Resize Model Deployment, Show Quota Usage) against the local service. */
export const MODEL_DEPLOYMENT_SUITE = 'Model deployment commands: quota check and usage view against the local service';

/** The version check: a set file in a git repository compared with its committed text; Show Changes Against HEAD. */
/** The screenshot of the Show Changes Against HEAD page. */
export const CHANGES_SCREENSHOT = 'changesAgainstHead';
export const VERSIONS_SUITE = 'Version check: committed text from the git extension, PS3006 and its quick fix, Show Changes Against HEAD';
