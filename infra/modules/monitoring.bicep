// Log Analytics workspace + workspace-based Application Insights with local (instrumentation key)
// auth disabled: telemetry is accepted only with an Entra token, which the function's identity gets
// through the Monitoring Metrics Publisher role (rbac.bicep) and the
// APPLICATIONINSIGHTS_AUTHENTICATION_STRING app setting (function-app.bicep).
// Resource shapes: https://learn.microsoft.com/azure/templates/microsoft.operationalinsights/workspaces
// and https://learn.microsoft.com/azure/templates/microsoft.insights/components

@description('Name of the Log Analytics workspace.')
param logAnalyticsName string

@description('Name of the Application Insights component.')
param applicationInsightsName string

@description('Azure region.')
param location string

@description('Tags applied to both resources.')
param tags object

@description('Days of log retention in the workspace.')
@minValue(30)
@maxValue(730)
param retentionInDays int = 30

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: logAnalyticsName
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: retentionInDays
  }
}

resource applicationInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: applicationInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: logAnalytics.id
    DisableLocalAuth: true
  }
}

// Only names and ids leave this module: the function module reads the connection string from the
// component itself (an `existing` reference), so no telemetry setting travels through outputs.
output applicationInsightsName string = applicationInsights.name
output applicationInsightsId string = applicationInsights.id
output logAnalyticsId string = logAnalytics.id
