// Hierarchical chunking skill for Azure AI Search: everything `azd up` provisions.
//
//   Flex Consumption Function App (POST /api/chunk) ── identity ──> host storage, App Insights
//   Azure AI Search (system identity) ──> documents storage (read), Azure OpenAI (embeddings),
//                                         the skill (function key, or Entra token in `entra` mode)
//   Azure OpenAI (keyless) with one embedding deployment
//
// No keys anywhere: storage accounts, Azure OpenAI, App Insights and (by default) Search accept
// Entra ID only, and every access is a role assignment in modules/rbac.bicep. The one secret in
// the design, the function key of `functionKey` mode, is never read here: the search deploy step
// fetches it at run time through the management API (docs/deploy.md).
// Layout and naming follow Azure-Samples/functions-quickstart-python-http-azd:infra/main.bicep.

targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('azd environment name; seeds the unique suffix of every resource name.')
param environmentName string

@minLength(1)
@description('Region of every resource except Azure OpenAI; must offer Flex Consumption.')
@metadata({
  azd: {
    type: 'location'
  }
})
param location string

@description('Resource group name; empty: rg-<environmentName>.')
param resourceGroupName string = ''

@description('Object id of the person or pipeline running azd (AZURE_PRINCIPAL_ID); empty: no grants.')
param principalId string = ''

@description('Kind of principalId: User for a person, ServicePrincipal for a CI identity.')
@allowed([
  'User'
  'ServicePrincipal'
  'Group'
])
param principalType string = 'User'

// ---- function app ------------------------------------------------------------------------------

@description('Python version of the Flex runtime (3.12: widest remote-build support).')
@allowed([
  '3.11'
  '3.12'
  '3.13'
])
param pythonVersion string = '3.12'

@description('Memory per Flex instance in MB.')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int = 2048

@description('Most instances the plan scales out to.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 100

@description('Concurrent skill requests per instance. 1: the skill is CPU-bound Python (one core, one GIL), so each of the degreeOfParallelism calls Search makes at once gets its own instance (docs/scaling.md); 4 concurrent calls of long documents on one core ran past 230 s and 2 GB (bench/load.py --shipped, docs/skill.md); host.json must not throttle below it.')
@minValue(1)
@maxValue(1000)
param httpPerInstanceConcurrency int = 1

@description('Seconds the skill may spend on one batch (SKILL_TIME_BUDGET_SECONDS); the skillsets in index_definitions/ allow PT230S, minus cold start and transfer.')
@minValue(1)
@maxValue(229)
param skillTimeBudgetSeconds int = 180

@description('How Search authenticates to the skill: functionKey (default) or entra (keyless).')
@allowed([
  'functionKey'
  'entra'
])
param skillAuthMode string = 'functionKey'

@description('entra mode: client id of the app registration representing the skill (see docs/deploy.md).')
param skillAppClientId string = ''

@description('entra mode: more principal (object) ids allowed to call the skill besides Search.')
param skillExtraCallerPrincipalIds array = []

// ---- Search --------------------------------------------------------------------------------------

@description('Search pricing tier (basic and up: managed identity). The tier caps what the indexer reads of a file: basic extracts at most 512,000 characters and skips blobs over 16 MB, with only a warning (skills/search/safety.py).')
@allowed([
  'basic'
  'standard'
  'standard2'
  'standard3'
  'storage_optimized_l1'
  'storage_optimized_l2'
])
param searchSkuName string = 'basic'

@description('Semantic ranker plan; disabled by default because not every region offers the ranker (https://learn.microsoft.com/azure/search/search-region-support). free: 1,000 queries a month.')
@allowed([
  'disabled'
  'free'
  'standard'
])
param semanticRankerPlan string = 'disabled'

@description('True: Search accepts Entra ID only; false: API keys too.')
param searchDisableLocalAuth bool = true

// ---- Azure OpenAI --------------------------------------------------------------------------------

@description('Region of the Azure OpenAI account; empty: same as location.')
param openAiLocation string = ''

@description('Embedding model.')
param embeddingModelName string = 'text-embedding-3-small'

@description('Embedding model version.')
param embeddingModelVersion string = '1'

@description('Embedding deployment name; empty: the model name.')
param embeddingDeploymentName string = ''

@description('Embedding deployment SKU.')
@allowed([
  'Standard'
  'GlobalStandard'
])
param embeddingDeploymentSkuName string = 'GlobalStandard'

@description('Embedding deployment capacity in thousands of tokens per minute.')
@minValue(1)
param embeddingDeploymentCapacity int = 100

@description('Vector dimensions the index stores (text-embedding-3-small: up to 1536; -3-large: 3072).')
@minValue(1)
@maxValue(3072)
param embeddingDimensions int = 1536

@description('Chat model that writes context notes for contextualize=llm (docs/contextual.md), e.g. gpt-5.2; empty: no chat deployment and the option stays off.')
param contextChatModelName string = ''

@description('Version of that chat model. Default 2025-12-11, gpt-5.2: the one text model of the Azure OpenAI retirement table (https://learn.microsoft.com/azure/ai-foundry/openai/concepts/model-retirements, "Current models", table of 2025-12-16) still open to new deployments on 2026-12-05 (gpt-4o-mini 2024-07-18 is retired). Set name and version together (docs/deploy.md).')
param contextChatModelVersion string = '2025-12-11'

@description('Chat deployment capacity in thousands of tokens per minute.')
@minValue(1)
param contextChatDeploymentCapacity int = 50

// ---- the search mode ---------------------------------------------------------------------------

@description('Search side mode (AZURE_SEARCH_MODE; the postdeploy hook deploys it): embedded, reference, files, or layout, which also provisions the AI Services account that bills the Document Layout skill.')
@allowed([
  'embedded'
  'reference'
  'files'
  'layout'
])
param searchMode string = 'embedded'

@description('layout mode: region of the AI Services account; empty: AZURE_LOCATION when the Document Layout skill documents it, else eastus. The regions are those named by the skill page (https://learn.microsoft.com/azure/search/cognitive-search-skill-document-intelligence-layout, "Supported regions").')
@allowed([
  ''
  'eastus'
  'westus2'
  'westeurope'
  'northcentralus'
])
param aiServicesLocation string = ''

// ---- documents -----------------------------------------------------------------------------------

@description('Blob container holding the source documents.')
@minLength(3)
@maxLength(63)
param documentsContainerName string = 'documents'

@description('Days a deleted document stays soft-deleted, so that the indexer sees the deletion and drops its chunks; keep it far above the indexer schedule (skills.search.settings).')
@minValue(1)
@maxValue(365)
param documentsSoftDeleteRetentionDays int = 14

var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = {
  'azd-env-name': environmentName
}
var serviceName = 'api'
var functionAppName = 'func-chunk-${resourceToken}'
var deploymentContainerName = 'app-package-${take(functionAppName, 32)}-${take(resourceToken, 7)}'
var embeddingDeployment = empty(embeddingDeploymentName) ? embeddingModelName : embeddingDeploymentName
// entra mode without an app registration would leave an anonymous endpoint open: fall back to
// function keys instead (the SKILL_AUTH_MODE_EFFECTIVE output tells which mode is live).
// azd input SKILL_AUTH_MODE feeds skillAuthMode; the output has another name so that the value azd
// writes back after provisioning never overrides what the user asked for.
var effectiveSkillAuthMode = skillAuthMode == 'entra' && !empty(skillAppClientId) ? 'entra' : 'functionKey'
// layout mode only: the Document Layout skill's documented regions (the @allowed list above);
// the region of everything else when it is one of them, so that documents stay in one region
var withLayout = searchMode == 'layout'
var layoutRegions = [
  'eastus'
  'westus2'
  'westeurope'
  'northcentralus'
]
var layoutLocation = !empty(aiServicesLocation) ? aiServicesLocation : (contains(layoutRegions, location) ? location : 'eastus')

resource rg 'Microsoft.Resources/resourceGroups@2021-04-01' = {
  name: !empty(resourceGroupName) ? resourceGroupName : 'rg-${environmentName}'
  location: location
  tags: tags
}

module functionIdentity 'modules/identity.bicep' = {
  name: 'function-identity'
  scope: rg
  params: {
    name: 'id-func-${resourceToken}'
    location: location
    tags: tags
  }
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  scope: rg
  params: {
    logAnalyticsName: 'log-${resourceToken}'
    applicationInsightsName: 'appi-${resourceToken}'
    location: location
    tags: tags
  }
}

module hostStorage 'modules/storage.bicep' = {
  name: 'host-storage'
  scope: rg
  params: {
    name: 'stfn${resourceToken}'
    location: location
    tags: tags
    containerNames: [
      deploymentContainerName
    ]
    softDeleteRetentionDays: 0
  }
}

module documentsStorage 'modules/storage.bicep' = {
  name: 'documents-storage'
  scope: rg
  params: {
    name: 'stdoc${resourceToken}'
    location: location
    tags: tags
    containerNames: [
      documentsContainerName
    ]
    softDeleteRetentionDays: documentsSoftDeleteRetentionDays
  }
}

module search 'modules/search.bicep' = {
  name: 'search'
  scope: rg
  params: {
    name: 'srch-${resourceToken}'
    location: location
    tags: tags
    skuName: searchSkuName
    semanticRankerPlan: semanticRankerPlan
    disableLocalAuth: searchDisableLocalAuth
  }
}

module openAi 'modules/openai.bicep' = {
  name: 'openai'
  scope: rg
  params: {
    name: 'oai-${resourceToken}'
    location: empty(openAiLocation) ? location : openAiLocation
    tags: tags
    embeddingDeploymentName: embeddingDeployment
    embeddingModelName: embeddingModelName
    embeddingModelVersion: embeddingModelVersion
    embeddingDeploymentSkuName: embeddingDeploymentSkuName
    embeddingDeploymentCapacity: embeddingDeploymentCapacity
    chatModelName: contextChatModelName
    chatModelVersion: contextChatModelVersion
    chatDeploymentCapacity: contextChatDeploymentCapacity
  }
}

module aiServices 'modules/ai-services.bicep' = if (withLayout) {
  name: 'ai-services'
  scope: rg
  params: {
    name: 'ais-${resourceToken}'
    location: layoutLocation
    tags: tags
  }
}

module rbac 'modules/rbac.bicep' = {
  name: 'rbac'
  scope: rg
  params: {
    hostStorageAccountName: hostStorage.outputs.name
    documentsStorageAccountName: documentsStorage.outputs.name
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    searchServiceName: search.outputs.name
    openAiAccountName: openAi.outputs.name
    aiServicesAccountName: withLayout ? aiServices.outputs.name : ''
    functionPrincipalId: functionIdentity.outputs.principalId
    searchPrincipalId: search.outputs.principalId
    deployerPrincipalId: principalId
    deployerPrincipalType: principalType
  }
}

module functionApp 'modules/function-app.bicep' = {
  name: 'function-app'
  scope: rg
  // The host starts as soon as the site exists: let its storage/telemetry roles land first.
  dependsOn: [
    rbac
  ]
  params: {
    name: functionAppName
    planName: 'plan-${resourceToken}'
    location: location
    tags: tags
    serviceName: serviceName
    identityId: functionIdentity.outputs.id
    identityClientId: functionIdentity.outputs.clientId
    hostStorageAccountName: hostStorage.outputs.name
    deploymentContainerName: deploymentContainerName
    applicationInsightsName: monitoring.outputs.applicationInsightsName
    pythonVersion: pythonVersion
    instanceMemoryMB: instanceMemoryMB
    maximumInstanceCount: maximumInstanceCount
    httpPerInstanceConcurrency: httpPerInstanceConcurrency
    skillAuthMode: effectiveSkillAuthMode
    skillTimeBudgetSeconds: skillTimeBudgetSeconds
    openAiEndpoint: openAi.outputs.endpoint
    embeddingDeploymentName: openAi.outputs.embeddingDeploymentName
    embeddingDimensions: embeddingDimensions
    chatDeploymentName: openAi.outputs.chatDeploymentName
    skillAppClientId: skillAppClientId
    allowedCallerPrincipalIds: concat([search.outputs.principalId], skillExtraCallerPrincipalIds)
  }
}

// ---- outputs: azd stores them in .azure/<env>/.env; the search deploy step reads them ---------

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_SUBSCRIPTION_ID string = subscription().subscriptionId
output AZURE_RESOURCE_GROUP string = rg.name

output AZURE_SEARCH_SERVICE string = search.outputs.name
output AZURE_SEARCH_ENDPOINT string = search.outputs.endpoint
output AZURE_SEARCH_SERVICE_ID string = search.outputs.id
output AZURE_SEARCH_PRINCIPAL_ID string = search.outputs.principalId
// The tier decides how much text the indexer extracts per blob (Basic: 512,000 characters) and the
// largest blob it reads (Basic: 16 MB); `python -m skills.search check` compares the container with it.
output AZURE_SEARCH_SKU string = searchSkuName

output AZURE_OPENAI_SERVICE string = openAi.outputs.name
output AZURE_OPENAI_ENDPOINT string = openAi.outputs.endpoint
output AZURE_OPENAI_EMBEDDING_DEPLOYMENT string = openAi.outputs.embeddingDeploymentName
output AZURE_OPENAI_EMBEDDING_MODEL string = embeddingModelName
output AZURE_OPENAI_EMBEDDING_DIMENSIONS int = embeddingDimensions
output AZURE_OPENAI_CHAT_DEPLOYMENT string = openAi.outputs.chatDeploymentName
// what the deploy's estimate of contextual notes divides the container's tokens by
output AZURE_OPENAI_CHAT_CAPACITY int = contextChatDeploymentCapacity

// layout mode: the AI Services account the skillset bills Document Layout to (by identity)
output AZURE_AI_SERVICES_ENDPOINT string = withLayout ? aiServices.outputs.endpoint : ''
output AZURE_AI_SERVICES_LOCATION string = withLayout ? layoutLocation : ''

output AZURE_FUNCTION_APP_NAME string = functionApp.outputs.name
output AZURE_FUNCTION_APP_ID string = functionApp.outputs.id
output SKILL_URI string = 'https://${functionApp.outputs.defaultHostName}/api/chunk'
output SKILL_AUTH_MODE_EFFECTIVE string = effectiveSkillAuthMode
output SKILL_AUTH_RESOURCE_ID string = effectiveSkillAuthMode == 'entra' ? 'api://${skillAppClientId}' : ''

output AZURE_STORAGE_ACCOUNT string = documentsStorage.outputs.name
output AZURE_STORAGE_RESOURCE_ID string = documentsStorage.outputs.id
output AZURE_STORAGE_BLOB_ENDPOINT string = documentsStorage.outputs.blobEndpoint
output AZURE_STORAGE_CONTAINER string = documentsContainerName
