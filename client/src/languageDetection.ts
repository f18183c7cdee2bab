import * as vscode from 'vscode';

export const POLICY_SET_LANGUAGE = 'policyset';

/** Enough of a document to see what it is: the type or the policy references come early in real files. */
const SNIFF_LENGTH = 64 * 1024;
const SET_TYPE = /[A-Za-z0-9.]+\.Authorization\/policySetDefinitions/i;
const REFERENCES = /"policyDefinitions"\s*:/;
/** A reference names its definition by ID, or (the policy-as-code framework) by name. */
const DEFINITION_REFERENCE = /"policyDefinition(?:Id|Name)"\s*:/;

/**
 * A cheap look at the start of a document: does it look like a policy set (or one of its versions)?
 * The server decides for real from the parsed content; this only chooses the language id.
 */
export function looksLikePolicySet(text: string): boolean {
  const head = text.length > SNIFF_LENGTH ? text.slice(0, SNIFF_LENGTH) : text;
  return SET_TYPE.test(head) || (REFERENCES.test(head) && DEFINITION_REFERENCE.test(head));
}

/** A part of a set in the cloud CLI's split layout, by its name: `<base>.definitions.json` and its siblings. */
const SPLIT_PART = /^(.*)\.(definitions|parameters|groups)\.jsonc?$/i;

/**
 * `<base>.definitions.json` holding an array of references is a part by itself; `<base>.parameters.json` and
 * `<base>.groups.json` are parts only beside one (a template's parameter file has the same name).
 */
async function isSplitPart(document: vscode.TextDocument): Promise<boolean> {
  const match = SPLIT_PART.exec(document.uri.path);
  if (!match) return false;
  if (match[2].toLowerCase() === 'definitions')
    return /^\s*\[/.test(document.getText()) && DEFINITION_REFERENCE.test(document.getText().slice(0, SNIFF_LENGTH));
  for (const extension of ['json', 'jsonc']) {
    try {
      await vscode.workspace.fs.stat(document.uri.with({ path: `${match[1]}.definitions.${extension}` }));
      return true;
    } catch {
      // No such sibling.
    }
  }
  return false;
}

function detectionEnabled(document: vscode.TextDocument): boolean {
  return vscode.workspace.getConfiguration('policySet', document.uri).get<boolean>('detectByContent', true);
}

async function switchIfPolicySet(document: vscode.TextDocument, log: vscode.LogOutputChannel): Promise<void> {
  if (document.languageId !== 'json' && document.languageId !== 'jsonc') return;
  // Files on disk, new files, and files of a workspace folder on any file system (VS Code for the Web: vscode-vfs, ...).
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled' && !vscode.workspace.getWorkspaceFolder(document.uri)) return;
  if (!detectionEnabled(document) || !(looksLikePolicySet(document.getText()) || (await isSplitPart(document)))) return;
  try {
    await vscode.languages.setTextDocumentLanguage(document, POLICY_SET_LANGUAGE);
    log.info(`${vscode.workspace.asRelativePath(document.uri)}: a policy set by its content, language set to '${POLICY_SET_LANGUAGE}'`);
  } catch (error) {
    // The document was closed meanwhile, or the editor refused: it stays JSON, and the server still validates it.
    log.warn(`could not set the language of ${document.uri.toString()}: ${(error as Error).message}`);
  }
}

/** Switches JSON documents whose content is a policy set to the `policyset` language when they are opened. */
export function registerLanguageDetection(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((document) => void switchIfPolicySet(document, log)));
  for (const document of vscode.workspace.textDocuments) void switchIfPolicySet(document, log);
}
