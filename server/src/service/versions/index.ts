// The change model of policy set versions: pure, no I/O. The CLI (diff, deploy --against, lint --against)
// and the language server read the texts and call these.
export { compareSets, showPair, BUMP_OF, type Change, type ChangeKind, type ChangeReport, type CompareOptions } from './changes';
export { NOT_A_SET, readSides, readSplitSide, versionOf, pointerOf, type SetSide, type Location, type ReadSides } from './side';
export {
  BUMPS,
  bumpRank,
  maxBump,
  isBump,
  parseVersion,
  formatVersion,
  nextVersion,
  bumpBetween,
  checkVersions,
  compareVersions,
  type Bump,
  type Version,
  type VersionCheck,
  type VersionCheckReason,
} from './version';
export { pairSides, compareTexts } from './compare';
