// A StorageV2 account reachable only with Entra ID (shared keys off) plus its blob containers.
// Used twice by main.bicep: once as the function host's storage (AzureWebJobsStorage + the Flex
// deployment container), once for the source documents the Search indexer reads. Two accounts keep
// the grants apart: the function identity owns its host account and nothing else; Search can only
// read the documents account.
// Resource shape: https://learn.microsoft.com/azure/templates/microsoft.storage/storageaccounts
// allowSharedKeyAccess false on Flex host storage: Azure-Samples/functions-quickstart-python-http-azd.

@description('Storage account name (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param name string

@description('Azure region.')
param location string

@description('Tags applied to the account.')
param tags object

@description('Blob containers to create (private).')
param containerNames array

resource storage 'Microsoft.Storage/storageAccounts@2024-01-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: 'Standard_LRS'
  }
  properties: {
    accessTier: 'Hot'
    allowBlobPublicAccess: false
    allowCrossTenantReplication: false
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2024-01-01' = {
  parent: storage
  name: 'default'
}

resource containers 'Microsoft.Storage/storageAccounts/blobServices/containers@2024-01-01' = [
  for containerName in containerNames: {
    parent: blobService
    name: containerName
    properties: {
      publicAccess: 'None'
    }
  }
]

output name string = storage.name
output id string = storage.id
output blobEndpoint string = storage.properties.primaryEndpoints.blob
