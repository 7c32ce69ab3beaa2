// User-assigned managed identity of the function app.
// Why user-assigned and not system-assigned: its role assignments (host storage, App Insights) can be
// created *before* the Flex site exists, so the host never starts without storage access, and the same
// identity is named in functionAppConfig.deployment.storage (pattern of
// Azure-Samples/functions-quickstart-python-http-azd:infra/main.bicep).

@description('Name of the user-assigned identity.')
param name string

@description('Azure region.')
param location string

@description('Tags applied to the identity.')
param tags object

// https://learn.microsoft.com/azure/templates/microsoft.managedidentity/userassignedidentities
resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: name
  location: location
  tags: tags
}

output id string = identity.id
output name string = identity.name
output clientId string = identity.properties.clientId
output principalId string = identity.properties.principalId
