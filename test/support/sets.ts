/**
 * A small policy set with no mistakes: one parameter passed on to one referenced built-in definition,
 * one group that the reference uses. With a version it is deployable as is.
 */
export function cleanSet(name: string, displayName: string, version?: string) {
  return {
    name,
    properties: {
      displayName,
      policyType: 'Custom',
      ...(version === undefined ? {} : { version }),
      parameters: { effect: { type: 'String', allowedValues: ['Audit', 'Disabled'], defaultValue: 'Audit' } },
      policyDefinitionGroups: [{ name: 'Network' }],
      policyDefinitions: [
        {
          policyDefinitionReferenceId: 'ref1',
          policyDefinitionId: '/providers/Microsoft.Authorization/policyDefinitions/06a78e20-9358-41c9-923c-fb736d382a4d',
          parameters: { effect: { value: "[parameters('effect')]" } },
          groupNames: ['Network'],
        },
      ],
    },
  };
}
