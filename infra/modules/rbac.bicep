// Every role assignment of the deployment, in one place, each at the narrowest scope that works.
//
// | principal          | role                           | scope             | why                              |
// |--------------------|--------------------------------|-------------------|----------------------------------|
// | function identity  | Storage Blob Data Owner        | host storage      | host keys/leases + deploy package |
// | function identity  | Monitoring Metrics Publisher   | App Insights      | Entra-authenticated telemetry     |
// | function identity  | Cognitive Services OpenAI User | Azure OpenAI      | semantic strategy's embeddings    |
// | Search identity    | Storage Blob Data Reader       | documents storage | blob indexer (ResourceId=...)     |
// | Search identity    | Cognitive Services OpenAI User | Azure OpenAI      | embedding skill + vectorizer      |
// | Search identity    | Cognitive Services User        | AI Services       | Document Layout (layout mode)     |
// | deployer (opt.)    | Search Service Contributor     | Search            | create index/skillset/indexer     |
// | deployer (opt.)    | Search Index Data Contributor  | Search            | push/query documents              |
// | deployer (opt.)    | Storage Blob Data Contributor  | documents storage | upload source documents           |
// | deployer (opt.)    | Cognitive Services OpenAI User | Azure OpenAI      | keyless embeddings in evaluation  |
//
// Role definition ids are the built-in ones listed at
// https://learn.microsoft.com/azure/role-based-access-control/built-in-roles and used in
// Azure-Samples/azure-search-openai-demo:infra/core/security/roleDefinitions.json,
// Azure-Samples/azure-functions-flex-consumption-samples:IaC/bicep/rbac.bicep.
// Keys are the documented role names; tests/infra checks each id against that name.

@description('Host storage account of the function app.')
param hostStorageAccountName string

@description('Storage account holding the source documents.')
param documentsStorageAccountName string

@description('Application Insights component of the function app.')
param applicationInsightsName string

@description('Search service name.')
param searchServiceName string

@description('Azure OpenAI account name.')
param openAiAccountName string

@description('layout mode: AI Services account billing the Document Layout skill; empty: none.')
param aiServicesAccountName string = ''

@description('Principal (object) id of the function app identity.')
param functionPrincipalId string

@description('Principal (object) id of the Search service identity.')
param searchPrincipalId string

@description('Principal (object) id of the person or pipeline running the deployment; empty: no grants.')
param deployerPrincipalId string

@description('Kind of that principal.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param deployerPrincipalType string

var roles = {
  'Storage Blob Data Owner': 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
  'Storage Blob Data Contributor': 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'
  'Storage Blob Data Reader': '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1'
  'Monitoring Metrics Publisher': '3913510d-42f4-4e42-8a64-420c390055eb'
  'Search Service Contributor': '7ca78c08-252a-4471-8644-bb5ff32d4ba0'
  'Search Index Data Contributor': '8ebe5a00-799e-43f5-93ac-243d3dce84a7'
  'Cognitive Services OpenAI User': '5e0bd9bd-7b93-4f28-af87-19fc36ad61bd'
  'Cognitive Services User': 'a97b65f3-24c7-4388-baec-2e87135dc908'
}

var withDeployer = !empty(deployerPrincipalId)
var withLayout = !empty(aiServicesAccountName)

resource hostStorage 'Microsoft.Storage/storageAccounts@2024-01-01' existing = {
  name: hostStorageAccountName
}

resource documentsStorage 'Microsoft.Storage/storageAccounts@2024-01-01' existing = {
  name: documentsStorageAccountName
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

resource search 'Microsoft.Search/searchServices@2025-05-01' existing = {
  name: searchServiceName
}

resource openAi 'Microsoft.CognitiveServices/accounts@2025-06-01' existing = {
  name: openAiAccountName
}

resource aiServices 'Microsoft.CognitiveServices/accounts@2025-06-01' existing = if (withLayout) {
  name: aiServicesAccountName
}

// ---- function app identity -------------------------------------------------------------------

resource functionHostStorage 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(hostStorage.id, functionPrincipalId, roles['Storage Blob Data Owner'])
  scope: hostStorage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Storage Blob Data Owner'])
    principalId: functionPrincipalId
    principalType: 'ServicePrincipal'
    description: 'Function host storage (AzureWebJobsStorage) and Flex deployment container'
  }
}

resource functionTelemetry 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(applicationInsights.id, functionPrincipalId, roles['Monitoring Metrics Publisher'])
  scope: applicationInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Monitoring Metrics Publisher'])
    principalId: functionPrincipalId
    principalType: 'ServicePrincipal'
    description: 'Entra-authenticated telemetry (App Insights local auth is disabled)'
  }
}

resource functionCallsOpenAi 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(openAi.id, functionPrincipalId, roles['Cognitive Services OpenAI User'])
  scope: openAi
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Cognitive Services OpenAI User'])
    principalId: functionPrincipalId
    principalType: 'ServicePrincipal'
    description: 'The semantic strategy embeds passages to find topic shifts'
  }
}

// ---- Search service identity -------------------------------------------------------------------

resource searchReadsDocuments 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(documentsStorage.id, searchPrincipalId, roles['Storage Blob Data Reader'])
  scope: documentsStorage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Storage Blob Data Reader'])
    principalId: searchPrincipalId
    principalType: 'ServicePrincipal'
    description: 'Blob indexer reads the source documents with its managed identity'
  }
}

resource searchCallsOpenAi 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(openAi.id, searchPrincipalId, roles['Cognitive Services OpenAI User'])
  scope: openAi
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Cognitive Services OpenAI User'])
    principalId: searchPrincipalId
    principalType: 'ServicePrincipal'
    description: 'Embedding skill and vectorizer call Azure OpenAI with the Search identity'
  }
}

// The skillset attaches the account by identity (AIServicesByIdentity), which needs this role
// (https://learn.microsoft.com/azure/search/cognitive-search-attach-cognitive-services, keyless
// connection: "Cognitive Services User" for the search service's managed identity).
resource searchBillsLayout 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (withLayout) {
  name: guid(aiServices.id, searchPrincipalId, roles['Cognitive Services User'])
  scope: aiServices
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Cognitive Services User'])
    principalId: searchPrincipalId
    principalType: 'ServicePrincipal'
    description: 'Document Layout skill billed to the AI Services account by the Search identity'
  }
}

// ---- deployer (optional: AZURE_PRINCIPAL_ID) -----------------------------------------------------

resource deployerSearchService 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (withDeployer) {
  name: guid(search.id, deployerPrincipalId, roles['Search Service Contributor'])
  scope: search
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Search Service Contributor'])
    principalId: deployerPrincipalId
    principalType: deployerPrincipalType
    description: 'Create the index, data source, skillset and indexer keylessly'
  }
}

resource deployerSearchData 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (withDeployer) {
  name: guid(search.id, deployerPrincipalId, roles['Search Index Data Contributor'])
  scope: search
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Search Index Data Contributor'])
    principalId: deployerPrincipalId
    principalType: deployerPrincipalType
    description: 'Push and query documents keylessly'
  }
}

resource deployerDocuments 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (withDeployer) {
  name: guid(documentsStorage.id, deployerPrincipalId, roles['Storage Blob Data Contributor'])
  scope: documentsStorage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Storage Blob Data Contributor'])
    principalId: deployerPrincipalId
    principalType: deployerPrincipalType
    description: 'Upload the source documents keylessly'
  }
}

resource deployerOpenAi 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (withDeployer) {
  name: guid(openAi.id, deployerPrincipalId, roles['Cognitive Services OpenAI User'])
  scope: openAi
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles['Cognitive Services OpenAI User'])
    principalId: deployerPrincipalId
    principalType: deployerPrincipalType
    description: 'Keyless embeddings for evaluation runs (local auth is disabled on the account)'
  }
}
