"""orders"""
