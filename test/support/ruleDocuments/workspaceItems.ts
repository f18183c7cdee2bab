// Documents the workspace-item rules' tests share (test/rules/).

export const ID = '5b218778-e7a5-4d73-8187-f10824047715';

export const WS = 'f089354e-8366-4e18-aea3-4cb4a3a50b48';

export const item = (fields: string) => `{
  "id": "${ID}",
  "workspaceId": "${WS}",
  "displayName": "Telemetry",
  ${fields}
}`;
