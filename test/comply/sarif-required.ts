/**
 * The SARIF 2.1.0 properties the comply output relies on, written from the OASIS SARIF 2.1.0
 * specification's required properties (sarifLog: version, runs; run: tool; tool: driver;
 * toolComponent: name; result: message; message: text or id; reportingDescriptor: id).
 * The full schema is not bundled (no network); this checks what we emit.
 */
export const SARIF_REQUIRED_SCHEMA = {
  type: 'object',
  required: ['version', 'runs'],
  properties: {
    version: { const: '2.1.0' },
    $schema: { type: 'string' },
    runs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool'],
        properties: {
          tool: {
            type: 'object',
            required: ['driver'],
            properties: {
              driver: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  version: { type: 'string' },
                  informationUri: { type: 'string', format: 'uri' },
                  rules: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id'],
                      properties: {
                        id: { type: 'string' },
                        helpUri: { type: 'string' },
                        shortDescription: { $ref: '#/$defs/message' },
                        fullDescription: { $ref: '#/$defs/message' },
                      },
                    },
                  },
                },
              },
            },
          },
          automationDetails: { type: 'object', properties: { id: { type: 'string' } } },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['message'],
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: 0 },
                level: { enum: ['none', 'note', 'warning', 'error'] },
                message: { $ref: '#/$defs/message' },
                locations: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      physicalLocation: {
                        type: 'object',
                        required: ['artifactLocation'],
                        properties: { artifactLocation: { type: 'object', required: ['uri'], properties: { uri: { type: 'string' } } } },
                      },
                    },
                  },
                },
              },
            },
          },
          invocations: {
            type: 'array',
            items: { type: 'object', required: ['executionSuccessful'], properties: { executionSuccessful: { type: 'boolean' } } },
          },
        },
      },
    },
  },
  $defs: { message: { type: 'object', anyOf: [{ required: ['text'] }, { required: ['id'] }], properties: { text: { type: 'string' } } } },
} as const;
