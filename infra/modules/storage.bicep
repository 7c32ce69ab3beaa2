// A StorageV2 account reachable only with Entra ID (shared keys off) plus its blob containers.
// Used twice by main.bicep: once as the function host's storage (AzureWebJobsStorage + the Flex
// deployment container), once for the source documents the Search indexer reads. Two accounts keep
// the grants apart: the function identity owns its host account and nothing else; Search can only
// read the documents account.
// Resource shape: https://learn.microsoft.com/azure/templates/microsoft.storage/storageaccounts
// allowSharedKeyAccess false on Flex host storage: Azure-Samples/functions-quickstart-python-http-azd.
//
// Blob soft delete (documents account only, softDeleteRetentionDays > 0): the Search data source's
// NativeBlobSoftDeleteDeletionDetectionPolicy removes a file's chunks only when the indexer sees the
// blob in the soft-deleted state, so soft delete must be on from the very first indexer run, with a
// retention "significantly higher than your indexer interval schedule", and blob versioning must be
// off ("the design doesn't support native soft delete" with it on):
// https://learn.microsoft.com/azure/search/search-how-to-index-azure-blob-changed-deleted

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

@description('Days a deleted blob stays recoverable (soft delete); 0 turns soft delete off.')
@minValue(0)
@maxValue(365)
param softDeleteRetentionDays int

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
  properties: {
    deleteRetentionPolicy: softDeleteRetentionDays > 0
      ? {
          enabled: true
          days: softDeleteRetentionDays
        }
      : {
          enabled: false
        }
    isVersioningEnabled: false
  }
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
