// The chunking skill's Function App on the Flex Consumption plan (FC1, Linux, one app per plan).
// Everything Flex-specific lives in properties.functionAppConfig (deployment container, runtime,
// scale); legacy settings such as FUNCTIONS_WORKER_RUNTIME, FUNCTIONS_EXTENSION_VERSION or
// WEBSITE_RUN_FROM_PACKAGE are deprecated on Flex and deliberately absent
// (https://learn.microsoft.com/azure/azure-functions/functions-app-settings#flex-consumption-plan-deprecations).
// Shapes follow Azure-Samples/azure-functions-flex-consumption-samples:IaC/bicep/core/host/function.bicep
// and Azure-Samples/functions-quickstart-python-http-azd (identity-based AzureWebJobsStorage).
//
// Auth between Search and the skill (parameter skillAuthMode):
// - functionKey: the code runs at AuthLevel.FUNCTION; Search sends the key (x-functions-key header).
// - entra: App Service Authentication (authsettingsV2) rejects any caller without a token for
//   api://<skillAppClientId> issued to one of allowedCallerPrincipalIds (the Search identity);
//   the code runs at AuthLevel.ANONYMOUS because the platform has already checked the caller.
// The app reads the mode from the SKILL_AUTH setting ('key' or 'entra', skills/skill/settings.py).

@description('Function app name (also the host name prefix).')
param name string

@description('Flex Consumption plan name.')
param planName string

@description('Azure region (must offer Flex Consumption).')
param location string

@description('Tags applied to plan and app.')
param tags object

@description('azd service name: the azd-service-name tag must match the service key in azure.yaml.')
param serviceName string

@description('Resource id of the user-assigned identity the app runs as.')
param identityId string

@description('Client id of that identity (identity-based connections need it to pick the identity).')
param identityClientId string

@description('Host storage account (AzureWebJobsStorage and the deployment container).')
param hostStorageAccountName string

@description('Blob container that receives the deployment package.')
param deploymentContainerName string

@description('Application Insights component that receives the telemetry.')
param applicationInsightsName string

@description('Python version of the Flex runtime.')
@allowed([
  '3.11'
  '3.12'
  '3.13'
])
param pythonVersion string

@description('Memory per instance in MB (512: 0.25 core, 2048: 1 core, 4096: 2 cores).')
@allowed([
  512
  2048
  4096
])
param instanceMemoryMB int

@description('Upper bound of instances the plan scales out to.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int

@description('Concurrent HTTP executions per instance (Flex defaults Python apps to 1).')
@minValue(1)
@maxValue(1000)
param httpPerInstanceConcurrency int

@description('How Search authenticates to the skill: functionKey or entra.')
@allowed([
  'functionKey'
  'entra'
])
param skillAuthMode string

@description('Seconds the skill may spend on one batch; below the skillset timeout (PT230S).')
@minValue(1)
@maxValue(229)
param skillTimeBudgetSeconds int

@description('Azure OpenAI endpoint the semantic strategy embeds passages with.')
param openAiEndpoint string

@description('Embedding deployment of that account (the one the index uses).')
param embeddingDeploymentName string

@description('Dimensions of that deployment\'s vectors.')
param embeddingDimensions int

@description('Chat deployment that writes context notes (contextualize=llm); empty: the option stays off.')
param chatDeploymentName string = ''

@description('entra mode: application (client) id of the app registration that represents the skill.')
param skillAppClientId string

@description('entra mode: object (principal) ids allowed to call the skill (the Search identity first).')
param allowedCallerPrincipalIds array

// SKILL_AUTH in the skill's own vocabulary (skills/skill/settings.py: 'key' or 'entra').
var skillAuthSetting = skillAuthMode == 'entra' ? 'entra' : 'key'

resource hostStorage 'Microsoft.Storage/storageAccounts@2024-01-01' existing = {
  name: hostStorageAccountName
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' existing = {
  name: applicationInsightsName
}

// https://learn.microsoft.com/azure/templates/microsoft.web/serverfarms ; Flex = FC1 / FlexConsumption.
resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    reserved: true
  }
}

// https://learn.microsoft.com/azure/templates/microsoft.web/sites (functionAppConfig needs >= 2023-12-01).
resource functionApp 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  tags: union(tags, {
    'azd-service-name': serviceName
  })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identityId}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    siteConfig: {
      minTlsVersion: '1.2'
      // No ftpsState: Flex Consumption has no FTPS and lists the property as deprecated
      // (functions-app-settings.md, "Flex Consumption plan deprecations").
      // Written out, not built from an object: a for-expression over values only known at run time
      // (endpoints, the connection string) is rejected by Bicep (BCP178).
      appSettings: [
        // Identity-based host storage: no connection string, the UAMI picked by client id. An
        // HTTP-only app needs the blob service alone (keys, locks): functions-quickstart-python-http-azd
        // sets enableQueue/enableTable false.
        {
          name: 'AzureWebJobsStorage__credential'
          value: 'managedidentity'
        }
        {
          name: 'AzureWebJobsStorage__clientId'
          value: identityClientId
        }
        {
          name: 'AzureWebJobsStorage__blobServiceUri'
          value: hostStorage.properties.primaryEndpoints.blob
        }
        // App Insights with local auth disabled: Entra-authenticated ingestion as the same identity.
        {
          name: 'APPLICATIONINSIGHTS_CONNECTION_STRING'
          value: applicationInsights.properties.ConnectionString
        }
        {
          name: 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING'
          value: 'ClientId=${identityClientId};Authorization=AAD'
        }
        // Read by the skill at import to pick its HTTP auth level.
        {
          name: 'SKILL_AUTH'
          value: skillAuthSetting
        }
        // entra mode: the skill's own check of the caller Easy Auth vouched for: its
        // X-MS-CLIENT-PRINCIPAL-ID (the token's object id) must be one of these object ids, the
        // same list the authorization policy below allows (skills/skill/caller.py); comma-separated.
        {
          name: 'SKILL_ALLOWED_CALLER_IDS'
          value: skillAuthMode == 'entra' ? join(allowedCallerPrincipalIds, ',') : ''
        }
        // The skill degrades to its fastest strategy, then to per-record errors, rather than let
        // the indexer time out a whole batch (skills/skill/budget.py).
        {
          name: 'SKILL_TIME_BUDGET_SECONDS'
          value: string(skillTimeBudgetSeconds)
        }
        // The semantic strategy's topic shifts (skills/llm/boundaries.py): keyless, as the UAMI
        // that AZURE_CLIENT_ID names for ManagedIdentityCredential; role in rbac.bicep.
        {
          name: 'AZURE_OPENAI_ENDPOINT'
          value: openAiEndpoint
        }
        {
          name: 'AZURE_OPENAI_EMBEDDING_DEPLOYMENT'
          value: embeddingDeploymentName
        }
        {
          name: 'AZURE_OPENAI_EMBEDDING_DIMENSIONS'
          value: string(embeddingDimensions)
        }
        // contextualize=llm (skills/llm/notes.py): empty means off. Notes are cached in the
        // host storage (AzureWebJobsStorage__blobServiceUri, Storage Blob Data Owner in rbac.bicep).
        {
          name: 'AZURE_OPENAI_CHAT_DEPLOYMENT'
          value: chatDeploymentName
        }
        {
          name: 'AZURE_CLIENT_ID'
          value: identityClientId
        }
      ]
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${hostStorage.properties.primaryEndpoints.blob}${deploymentContainerName}'
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        instanceMemoryMB: instanceMemoryMB
        maximumInstanceCount: maximumInstanceCount
        triggers: {
          http: {
            perInstanceConcurrency: httpPerInstanceConcurrency
          }
        }
      }
      runtime: {
        name: 'python'
        version: pythonVersion
      }
    }
  }
}

// App Service Authentication for the keyless mode (pattern of
// Azure-Samples/azure-search-openai-demo:infra/app/functions-app.bicep). Only bearer tokens are
// validated, so no client secret is configured. The policy names the callers by object id
// (allowedPrincipals.identities): an empty policy would accept any token for the audience, and an
// empty allowedApplications list rejects every token (pnp/Microsoft365-Analytics-Insights#264).
// Audiences: the api:// URI (v1 tokens carry the resource as requested) and the bare client id
// (v2 tokens).
resource authSettings 'Microsoft.Web/sites/config@2024-04-01' = if (skillAuthMode == 'entra') {
  parent: functionApp
  name: 'authsettingsV2'
  properties: {
    platform: {
      enabled: true
    }
    globalValidation: {
      requireAuthentication: true
      unauthenticatedClientAction: 'Return401'
      // The anonymous liveness probe of function_app.py stays reachable for smoke tests.
      excludedPaths: [
        '/api/health'
      ]
    }
    identityProviders: {
      azureActiveDirectory: {
        enabled: true
        registration: {
          clientId: skillAppClientId
          openIdIssuer: '${environment().authentication.loginEndpoint}${tenant().tenantId}/v2.0'
        }
        validation: {
          allowedAudiences: [
            'api://${skillAppClientId}'
            skillAppClientId
          ]
          defaultAuthorizationPolicy: {
            allowedPrincipals: {
              identities: allowedCallerPrincipalIds
            }
          }
        }
      }
    }
    login: {
      tokenStore: {
        enabled: false
      }
    }
  }
}

output name string = functionApp.name
output id string = functionApp.id
output defaultHostName string = functionApp.properties.defaultHostName
