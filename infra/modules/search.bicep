// Azure AI Search with a system-assigned identity (used by the indexer to read blobs, to call Azure
// OpenAI for the embedding skill and the vectorizer, and, in `entra` auth mode, to get a token for
// the chunking skill) and the semantic ranker on.
// Resource shape: https://learn.microsoft.com/azure/templates/microsoft.search/searchservices (2025-05-01).
// The free tier has neither managed identity nor the semantic ranker, hence basic and up only
// (Azure-Samples/azure-search-openai-demo infra comment "The free tier does not support managed
// identity (required) or semantic search").

@description('Search service name (lowercase letters, digits, dashes).')
@minLength(2)
@maxLength(60)
param name string

@description('Azure region.')
param location string

@description('Tags applied to the service.')
param tags object

@description('Pricing tier.')
@allowed([
  'basic'
  'standard'
  'standard2'
  'standard3'
  'storage_optimized_l1'
  'storage_optimized_l2'
])
param skuName string

@description('Semantic ranker plan: disabled, free (1,000 queries a month) or standard (billed per query). The ranker is offered only in some regions (https://learn.microsoft.com/azure/search/search-region-support).')
@allowed([
  'disabled'
  'free'
  'standard'
])
param semanticRankerPlan string

@description('True: Entra ID only (API keys rejected). False: keys and Entra ID both accepted.')
param disableLocalAuth bool

// disableLocalAuth and authOptions are mutually exclusive on the resource ("cannot be set to true if
// 'authOptions' are defined", AVM avm/res/search/search-service README), so only one is emitted.
var authProperties = disableLocalAuth
  ? {
      disableLocalAuth: true
    }
  : {
      disableLocalAuth: false
      authOptions: {
        aadOrApiKey: {
          aadAuthFailureMode: 'http401WithBearerChallenge'
        }
      }
    }

resource search 'Microsoft.Search/searchServices@2025-05-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: skuName
  }
  identity: {
    type: 'SystemAssigned'
  }
  properties: union(
    {
      // 'Default' | 'HighDensity' in the 2025-05-01 type (Azure/bicep-types-az:
      // generated/search/microsoft.search/2025-05-01/types.md); the older specs spell it 'default'.
      hostingMode: 'Default'
      partitionCount: 1
      replicaCount: 1
      semanticSearch: semanticRankerPlan
    },
    authProperties
  )
}

output name string = search.name
output id string = search.id
output endpoint string = 'https://${search.name}.search.windows.net'
output principalId string = search.identity.principalId
