import { checkSetName, checkVersion, type PolicySetDefinitionProperties } from './policySets';

/** What a document gives for E2: the set's name, the version, and the properties to send. */
export interface VersionToDeploy {
  name?: string;
  version?: string;
  properties: PolicySetDefinitionProperties;
  /** Where the name and version came from, for messages. */
  nameSource?: string;
  versionSource?: string;
  /**
   * Response-only fields the document held that are not sent (a fetched set carries them): 'properties.versions',
   * 'policyDefinitions[].latestDefinitionVersion' ..., and the resource's own 'id', 'type', 'systemData'.
   */
  omitted: string[];
}

/** Fields the service returns and never takes in a PUT (spec E1, E2). */
const RESPONSE_ONLY_PROPERTIES = ['versions'];
const RESPONSE_ONLY_REFERENCE_FIELDS = ['effectiveDefinitionVersion', 'latestDefinitionVersion'];
const RESPONSE_ONLY_RESOURCE_FIELDS = ['id', 'type', 'systemData'];
/** policyType values only the service's own sets carry (A3): never claimed by a PUT. */
const SERVICE_ONLY_POLICY_TYPES = ['builtin', 'static'];

/** The properties without response-only fields (a copy when any is there), and which were left out. */
export function withoutResponseOnly(
  document: Record<string, unknown>,
  properties: PolicySetDefinitionProperties,
): { properties: PolicySetDefinitionProperties; omitted: string[] } {
  const omitted = RESPONSE_ONLY_RESOURCE_FIELDS.filter((k) => k in document);
  const copy: Record<string, unknown> = { ...properties };
  for (const key of RESPONSE_ONLY_PROPERTIES) {
    if (key in copy) {
      delete copy[key];
      omitted.push(`properties.${key}`);
    }
  }
  // A built-in's type belongs to the service: a PUT of a version at a scope is the team's own (Custom).
  const typeKey = Object.keys(copy).find((k) => k.toLowerCase() === 'policytype');
  if (typeKey && typeof copy[typeKey] === 'string' && SERVICE_ONLY_POLICY_TYPES.includes((copy[typeKey] as string).toLowerCase())) {
    omitted.push(`properties.${typeKey} (${String(copy[typeKey])}: the service's own sets only)`);
    delete copy[typeKey];
  }
  for (const field of RESPONSE_ONLY_REFERENCE_FIELDS) {
    let count = 0;
    copy.policyDefinitions = (copy.policyDefinitions as unknown[]).map((reference) => {
      if (!isObject(reference) || !(field in reference)) return reference;
      count++;
      const stripped = { ...reference };
      delete stripped[field];
      return stripped;
    });
    if (count) omitted.push(`policyDefinitions[].${field} (${count} reference${count === 1 ? '' : 's'})`);
  }
  return { properties: copy as PolicySetDefinitionProperties, omitted };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const VERSION_ID = /\/policySetDefinitions\/([^/]+)\/versions\/([^/]+)$/i;

/**
 * Reads a set definition (`{ name, properties: { version } }`) or a version resource (A1: `{ name: "#.#.#",
 * properties }`, its id naming the set). Explicit values win over the document's.
 * Throws an Error with a message for the user when the document cannot be deployed as is.
 */
export function versionToDeploy(
  document: unknown,
  explicit: { name?: string; version?: string } = {},
  /** What the face calls the explicit values in messages (the CLI: its flags). */
  labels: { name: string; version: string } = { name: 'the name given', version: 'the version given' },
): VersionToDeploy {
  if (!isObject(document) || !isObject(document.properties))
    throw new Error('The document is not a policy set definition or version: it has no "properties" object');
  const properties = document.properties as PolicySetDefinitionProperties;
  if (!Array.isArray(properties.policyDefinitions)) throw new Error('The document has no properties.policyDefinitions array');
  // A2: every reference carries its policyDefinitionId (the CLI resolves a policyDefinitionName before this).
  properties.policyDefinitions.forEach((reference, index) => {
    if (!isObject(reference)) return;
    const key = (lower: string) => Object.keys(reference).find((k) => k.toLowerCase() === lower);
    const id = reference[key('policydefinitionid') ?? ''];
    if (typeof id === 'string' && id) return;
    const name = reference[key('policydefinitionname') ?? ''];
    throw new Error(
      `Reference ${index + 1} has no policyDefinitionId: the service requires one in every reference${typeof name === 'string' ? ` (it names its definition by policyDefinitionName '${name}' only: policyset deploy resolves that to an ID at the deploy scope)` : ''}`,
    );
  });
  const docName = typeof document.name === 'string' ? document.name : undefined;
  const idMatch = typeof document.id === 'string' ? VERSION_ID.exec(document.id) : null;
  // Where the repository keeps the version: properties.version, else properties.metadata.version (the landing-zone
  // libraries and the policy-as-code framework keep it there).
  const metadata = isObject(properties.metadata) ? properties.metadata : undefined;
  const propertyVersion =
    typeof properties.version === 'string'
      ? properties.version
      : typeof properties.Version === 'string'
        ? (properties.Version as string)
        : undefined;
  const metadataVersion = typeof metadata?.version === 'string' ? metadata.version : undefined;
  const documentVersion = propertyVersion ?? metadataVersion;
  const documentVersionSource = propertyVersion !== undefined ? 'properties.version' : 'properties.metadata.version';
  const isVersionResource = !!docName && !checkVersion(docName);

  let name = explicit.name;
  let nameSource = name ? labels.name : undefined;
  if (!name && idMatch) [name, nameSource] = [decodeURIComponent(idMatch[1]), 'the document id'];
  if (!name && docName && !isVersionResource) [name, nameSource] = [docName, 'the document name'];

  let version = explicit.version;
  let versionSource = version ? labels.version : undefined;
  if (!version && isVersionResource) [version, versionSource] = [docName, 'the document name'];
  if (!version && documentVersion) [version, versionSource] = [documentVersion, documentVersionSource];

  if (name) {
    const problem = checkSetName(name);
    if (problem) throw new Error(problem);
  }
  if (version) {
    const problem = checkVersion(version);
    if (problem) throw new Error(`${problem} (from ${versionSource})`);
  }
  if (version && documentVersion && documentVersion !== version)
    throw new Error(
      `The version to deploy is '${version}' (from ${versionSource}) but ${documentVersionSource} says '${documentVersion}'; make them agree`,
    );
  const sent = withoutResponseOnly(document, properties);
  return { name, version, properties: sent.properties, nameSource, versionSource, omitted: sent.omitted };
}
