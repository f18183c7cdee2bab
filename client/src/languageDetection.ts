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

function detectionEnabled(document: vscode.TextDocument): boolean {
  return vscode.workspace.getConfiguration('policySet', document.uri).get<boolean>('detectByContent', true);
}

async function switchIfPolicySet(document: vscode.TextDocument, log: vscode.LogOutputChannel): Promise<void> {
  if (document.languageId !== 'json' && document.languageId !== 'jsonc') return;
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled') return;
  if (!detectionEnabled(document) || !looksLikePolicySet(document.getText())) return;
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
