import ForcePlugin
import Testing
