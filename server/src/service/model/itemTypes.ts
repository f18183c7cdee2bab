/**
 * The workspace item types of spec section C (ItemType), in the order the spec lists them. The spec
 * says the list can grow over time: a type not listed here is worth a warning, not an error.
 */
export const ITEM_TYPES = [
  'Dashboard',
  'Report',
  'SemanticModel',
  'PaginatedReport',
  'Datamart',
  'Lakehouse',
  'Eventhouse',
  'Environment',
  'KQLDatabase',
  'KQLQueryset',
  'KQLDashboard',
  'DataPipeline',
  'Notebook',
  'SparkJobDefinition',
  'MLExperiment',
  'MLModel',
  'Warehouse',
  'Eventstream',
  'SQLEndpoint',
  'MirroredWarehouse',
  'MirroredDatabase',
  'Reflex',
  'GraphQLApi',
  'MountedDataFactory',
  'SQLDatabase',
  'CopyJob',
  'VariableLibrary',
  'Dataflow',
  'ApacheAirflowJob',
  'WarehouseSnapshot',
  'DigitalTwinBuilder',
  'DigitalTwinBuilderFlow',
  'MirroredAzureDatabricksCatalog',
  'Map',
  'AnomalyDetector',
  'UserDataFunction',
  'GraphModel',
  'GraphQuerySet',
  'SnowflakeDatabase',
  'OperationsAgent',
  'CosmosDBDatabase',
  'Ontology',
  'EventSchemaSet',
  'DataAgent',
] as const;

export type ItemType = (typeof ITEM_TYPES)[number];

const BY_LOWER = new Map<string, ItemType>(ITEM_TYPES.map((t) => [t.toLowerCase(), t]));

/** The listed type with this name in any casing. */
export function knownItemType(value: string): ItemType | undefined {
  return BY_LOWER.get(value.toLowerCase());
}

/** The keys of a workspace item (section C) that no policy resource has. */
export const ITEM_ONLY_KEYS = ['workspaceId', 'folderId', 'sensitivityLabel'] as const;
